const docs = [];
for (let i = 0; i < 160; i++) docs.push({ _id: i, sensorId: 's' + (i % 10), at: new Date(Date.UTC(2026, 8, 1, 0, i)), temp: 20 + (i % 7) / 2, tags: ['hourly', 'bucketed'] });
db.long.insertMany(docs);
db.long.find({}, { _id: 0 }).toArray()
