/**
 * A DevTools Protocol session with the Worker's isolate, through `wrangler dev`'s inspector port:
 * the profiler (`npm run bench:profile`) and the heap sampling of the export measurement use it.
 */
import WebSocket from 'ws';

/** One DevTools Protocol session: `send` resolves with the command's result. */
export async function devtools(inspectorPort: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${inspectorPort}`);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (data: WebSocket.RawData) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    if (message.error) throw new Error(`inspector: ${message.error.message}`);
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  let lastId = 0;
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      lastId += 1;
      pending.set(lastId, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  return { send, close: () => socket.close() };
}

