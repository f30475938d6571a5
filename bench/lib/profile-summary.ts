/** The parts of a V8 CPU profile (DevTools Protocol `Profiler.Profile`) the summary reads. */
export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
};

const TOP = 25;

/**
 * The functions with the most samples, as shares of all samples: by self time (the function's own
 * code) and inclusive (with everything it called). `(idle)` is the Worker waiting, mostly on D1.
 */
export function summarizeProfile(profile: CpuProfile): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nameOf = (id: number) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return '?';
    const file = frame.url.split('/').pop() ?? '';
    return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const bump = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const sample of profile.samples) {
    bump(self, nameOf(sample));
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) seen.add(nameOf(id));
    for (const name of seen) bump(inclusive, name);
  }
  const total = profile.samples.length || 1;
  const table = (title: string, counts: Map<string, number>) =>
    [title, ...[...counts].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([name, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`)].join('\n');
  return [`${profile.samples.length} samples`, table('self:', self), table('inclusive:', inclusive)].join('\n\n');
}
