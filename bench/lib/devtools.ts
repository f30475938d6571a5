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
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data: WebSocket.RawData) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`inspector: ${message.error.message}`));
    else waiting.resolve(message.result);
  });
  let lastId = 0;
  /** A busy isolate may not answer for minutes: with `timeoutMs`, the call fails after it instead of waiting. */
  const send = <T>(method: string, params: object = {}, timeoutMs?: number) =>
    new Promise<T>((resolve, reject) => {
      lastId += 1;
      const id = lastId;
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
        pending.delete(id);
        reject(new Error(`inspector: ${method} unanswered after ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = () => clearTimeout(timer);
      pending.set(id, { resolve: (result) => (settle(), resolve(result as T)), reject: (error) => (settle(), reject(error)) });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

