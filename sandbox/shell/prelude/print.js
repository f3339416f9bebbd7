// print(), printjson() and console.

// mongosh's print waits for the Promises among its arguments and prints
// their values. (n.isPromise looks without running a Proxy's traps.)
const printing = (native) => (...args) => (args.some(n.isPromise)
  ? markPromise(ShellPromise.all(args).then((values) => { native(...values); }))
  : native(...args));
const print = printing(n.print);
const printjson = printing(n.printjson);
const console = {
  log: print, info: print, warn: print, error: print, debug: print,
};
