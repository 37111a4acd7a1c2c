/**
 * The console's build: `npm run build:web` builds web/ into web/dist (what the API serves at
 * `/`); `npm start` and the browser tests call ensureWebBuild, which builds only when the build
 * is missing or older than its sources (web/ and the typed client).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..');
const configFile = path.join(root, 'web', 'vite.config.mts');
const builtIndex = path.join(root, 'web', 'dist', 'index.html');
const SOURCES = [path.join(root, 'web', 'src'), path.join(root, 'web', 'index.html'), path.join(root, 'web', 'public'), configFile, path.join(root, 'clients', 'typescript')];

function newestChange(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

/** Vite's own command line: its package ships ES module types only, which this CommonJS project cannot import. */
export async function buildWeb(): Promise<void> {
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', configFile, '--logLevel', 'warn'], { cwd: root });
}

/** Builds the console when web/dist is missing or older than its sources; true when it built. */
export async function ensureWebBuild(): Promise<boolean> {
  const built = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
  if (built > Math.max(...SOURCES.map(newestChange))) return false;
  await buildWeb();
  return true;
}

if (require.main === module) {
  buildWeb().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
