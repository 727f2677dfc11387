import { readFile, stat } from 'node:fs/promises';
import { extname, normalize, resolve, sep } from 'node:path';
import { MIME_TYPES } from './content-policy';

export interface StaticFile {
  status: 200 | 404;
  body: Buffer;
  contentType: string;
}

/**
 * Resolves a URL path to a file inside `root` (the built renderer). Paths that escape the root
 * (`..`, encoded or not), hidden files and unknown types are refused; a path without an extension
 * falls back to `index.html` so deep links open the app.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile> {
  const notFound: StaticFile = { status: 404, body: Buffer.from('Not found'), contentType: 'text/plain; charset=utf-8' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return notFound;
  }
  if (decoded.includes('\0')) return notFound;
  const rootAbs = resolve(root);
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  if (rel.split(/[/\\]/).some((part) => part === '..' || part.startsWith('.'))) return notFound;
  let file = resolve(rootAbs, rel === '' ? 'index.html' : rel);
  if (file !== rootAbs && !file.startsWith(rootAbs + sep)) return notFound;
  if (extname(file) === '') file = resolve(rootAbs, 'index.html');
  const type = MIME_TYPES[extname(file).toLowerCase()];
  if (!type) return notFound;
  try {
    const st = await stat(file);
    if (!st.isFile()) return notFound;
    return { status: 200, body: await readFile(file), contentType: type };
  } catch {
    return notFound;
  }
}
