const fs = require('fs');
const lines = fs.readFileSync('/work/main/sandbox/shell/testdata/format_corpus.js', 'utf8').split('\n').filter(l => l && !l.startsWith('//'));
for (const l of lines) {
  print('=== ' + l);
  const v = eval('(' + l + ')');
  print(v);
  print('--- printjson');
  printjson(v);
}
