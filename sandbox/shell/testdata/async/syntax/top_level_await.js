print(1)
var r = await Promise.all([1])
print(r)
