for (let i = 0; i < 3; i++) {
  await addCustomer(1, 'c' + i)
}