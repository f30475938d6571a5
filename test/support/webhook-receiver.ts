/**
 * A real HTTP receiver for webhook tests (Node, started by the global setup on 127.0.0.1). Each
 * test posts to its own inbox `/hook/<inbox>`; the query decides the answer: `?status=500` (with
 * `&body=<base64url>`, that text as its body: encoded, so the text is not in the endpoint's URL),
 * `?redirect=1` (302 to an inbox that would answer 200), `?hang=1` (answers after 12 s, past the
 * delivery timeout). `GET /received/<inbox>` lists what arrived, headers and raw body.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

type ReceivedWebhook = { path: string; headers: Record<string, string>; body: string };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startWebhookReceiver(): Promise<{ url: string; stop: () => Promise<void> }> {
  const inboxes = new Map<string, ReceivedWebhook[]>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    const [, kind, inbox = ''] = url.pathname.split('/');
    if (request.method === 'GET' && kind === 'received') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(inboxes.get(inbox) ?? []));
      return;
    }
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    inboxes.set(inbox, [...(inboxes.get(inbox) ?? []), { path: url.pathname + url.search, headers, body }]);
    if (url.searchParams.has('redirect')) {
      response.writeHead(302, { location: `/hook/${inbox}-redirected` }).end();
    } else if (url.searchParams.has('hang')) {
      setTimeout(() => response.writeHead(200).end('late'), 12_000).unref();
    } else {
      const status = Number(url.searchParams.get('status') ?? 200);
      const body = url.searchParams.get('body');
      const answer = body === null ? (status < 300 ? 'ok' : `receiver says ${status}`) : Buffer.from(body, 'base64url').toString('utf8');
      response.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
