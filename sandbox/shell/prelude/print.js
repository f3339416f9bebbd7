// print(), printjson() and console.

const print = (...args) => n.print(...args);
const printjson = (...args) => n.printjson(...args);
const console = {
  log: print, info: print, warn: print, error: print, debug: print,
};
