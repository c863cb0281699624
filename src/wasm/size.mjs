// Prints the size of each file given, raw and compressed as a server would send it
// (gzip -9, brotli at quality 11), and their total: `make wasm` runs it on its output.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const kb = (n) => (n / 1024).toFixed(1).padStart(8) + ' KB';
const total = { raw: 0, gz: 0, br: 0 };
console.log('wasm size:      file       raw        gzip      brotli');
for (const path of process.argv.slice(2)) {
  const data = readFileSync(path);
  const gz = gzipSync(data, { level: 9 }).length;
  const br = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  }).length;
  total.raw += data.length;
  total.gz += gz;
  total.br += br;
  console.log(`wasm size: ${basename(path).padStart(16)}${kb(data.length)}${kb(gz)}${kb(br)}`);
}
console.log(`wasm size: ${'total'.padStart(16)}${kb(total.raw)}${kb(total.gz)}${kb(total.br)}`);
