// The import fences of DESIGN.md §2 as a lint rule: each top folder may import only the folders and
// kinds of module its row allows, so a wrong import fails CI instead of review (CONVENTIONS.md, "Layers
// you can see"). Paths are resolved from the importing file; bare specifiers are packages or `node:*`.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** @param {string} spec */
function kindOf(spec) {
  if (spec === 'electron' || spec.startsWith('electron/')) return 'electron';
  if (NODE_BUILTINS.has(spec) || spec.startsWith('node:')) return 'node';
  return 'package';
}

/**
 * The layers of shared/ (DESIGN.md §2), each with the layers it may import: validate < rules <
 * protocol and history (side by side: the wire's messages and the local history know nothing of each
 * other) < exchange (the file formats read and write both) < api (the client API carries all of them).
 */
const SHARED_LAYERS = {
  validate: [],
  rules: ['validate'],
  protocol: ['validate', 'rules'],
  history: ['validate', 'rules'],
  exchange: ['validate', 'rules', 'protocol', 'history'],
  api: ['validate', 'rules', 'protocol', 'history', 'exchange'],
};
const sharedLayers = () =>
  Object.entries(SHARED_LAYERS).map(([layer, below]) => ({ zone: `shared/${layer}`, folders: [layer, ...below].map((l) => `shared/${l}`), node: false, electron: false, packages: false }));

/**
 * Zones, most specific first. `folders`: project folders that may be imported (relative imports);
 * `node`, `electron`, `packages`: whether those kinds of bare import are allowed.
 */
export const ZONES = [
  // shared/node: Node code the client's services and the operator both need (DESIGN.md §2).
  { zone: 'shared/node', folders: ['shared'], node: true, electron: false, packages: true },
  // shared/ in layers, each importing only those below it (SHARED_LAYERS).
  ...sharedLayers(),
  { zone: 'shared', folders: ['shared'], deny: ['shared/node'], node: false, electron: false, packages: false },
  { zone: 'renderer', folders: ['renderer', 'shared', 'resources'], deny: ['shared/node'], node: false, electron: false, packages: true },
  { zone: 'electron/services', folders: ['electron/services', 'shared'], node: true, electron: false, packages: true },
  { zone: 'electron/web', folders: ['electron/web', 'electron/services', 'shared', 'package.json'], node: true, electron: false, packages: true },
  { zone: 'electron/cli', folders: ['electron/cli', 'electron/services', 'shared'], node: true, electron: false, packages: true },
  { zone: 'electron/preload', folders: ['electron/preload', 'shared'], node: false, electron: true, packages: false },
  { zone: 'electron/main', folders: ['electron/main', 'electron/services', 'shared'], node: true, electron: true, packages: true },
  // The tables are given their practice players (tables/manager.ts PracticeSeats); practice/ builds on
  // tables/, never the other way (no manager → practice → table loop).
  { zone: 'operator/tables', folders: ['operator', 'shared'], deny: ['operator/practice'], node: true, electron: false, packages: true },
  { zone: 'operator', folders: ['operator', 'shared'], node: true, electron: false, packages: true },
];

/** @type {import('eslint').Rule.RuleModule} */
export const importFence = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the folder import fences of DESIGN.md §2' },
    schema: [],
    messages: {
      folder: '{{zone}}/ may not import {{target}} (DESIGN.md §2 allows: {{allowed}}).',
      kind: '{{zone}}/ may not import {{kind}} module "{{spec}}" (DESIGN.md §2).',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = relative(root, context.filename).split(sep).join('/');
    // Test files may reach across folders to set up real neighbours; shipped code may not.
    if (/\.(test|spec)\.ts$/.test(file)) return {};
    const zone = ZONES.find((z) => file === z.zone || file.startsWith(`${z.zone}/`));
    if (!zone) return {};

    /** @param {import('estree').Node} node @param {unknown} source */
    function check(node, source) {
      if (typeof source !== 'string') return;
      if (source.startsWith('.') || source.startsWith('/')) {
        const target = relative(root, resolve(dirname(context.filename), source)).split(sep).join('/');
        const within = (/** @type {string} */ f) => target === f || target.startsWith(`${f}/`);
        const ok = zone.folders.some(within) && !(zone.deny ?? []).some(within);
        if (!ok) context.report({ node, messageId: 'folder', data: { zone: zone.zone, target, allowed: zone.folders.join(', ') } });
        return;
      }
      const kind = kindOf(source);
      const allowed = kind === 'node' ? zone.node : kind === 'electron' ? zone.electron : zone.packages;
      if (!allowed) context.report({ node, messageId: 'kind', data: { zone: zone.zone, kind: kind === 'package' ? 'npm' : kind, spec: source } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
          check(node, node.arguments[0].value);
        }
      },
    };
  },
};
