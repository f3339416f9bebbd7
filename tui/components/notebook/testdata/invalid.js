db.createCollection("v", { validator: { $jsonSchema: { required: ["a"] } } })
db.v.insertOne({ b: 1 })
