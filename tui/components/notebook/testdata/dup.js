db.dup.insertOne({ _id: 1, name: "Ada" })
db.dup.insertOne({ _id: 1, name: "Ада Лавлейс" })
