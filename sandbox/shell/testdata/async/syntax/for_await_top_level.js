for await (const d of db.c.find()) print(d)
