print(1)
if (true) {
  x = await f()
}
print(2)
print(3)
print(4)
