import { configOf } from '../config';
import type { Bindings, OperationMessage } from '../env';
import { onMessageShard, runContext } from '../services/context';
import { runExport } from '../services/export-jobs';
import { applyImportChunk } from '../services/import-chunks';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

/**
 * The operations queue's consumer: an import's chunk of rows, or an export to write. Both are
 * safe to run again: a chunk applies each row at most once, an export starts its file over.
 * Messages of a batch run one after another: each is a long piece of D1 and R2 work.
 */
export async function consumeOperationsBatch(batch: MessageBatch<OperationMessage>, env: Bindings): Promise<void> {
  const run = runContext(env);
  for (const message of batch.messages) {
    const body = message.body;
    try {
      const ctx = onMessageShard(run, body?.shard);
      if (body?.kind === 'import_chunk') await applyImportChunk(ctx, body, { files: env.FILES, walletMnemonic: walletMnemonicOf(env) });
      else if (body?.kind === 'export') await runExport(ctx, env, body);
      else log('warn', 'operations message of no known kind dropped', { message_id: message.id });
      message.ack();
    } catch (error) {
      log('error', 'operations message failed; retried', { kind: body?.kind, message_id: message.id, reason: reasonOf(error) });
      message.retry({ delaySeconds: 5 });
    }
  }
}

/** The custodial wallets' seed from the checked configuration (a misconfigured Worker retries the chunk). */
function walletMnemonicOf(env: Bindings): string {
  const result = configOf(env);
  if (!result.ok) throw new Error('the service is misconfigured');
  return result.config.WALLET_MNEMONIC;
}
