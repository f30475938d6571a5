import type { Bindings, OperationMessage } from '../env';
import type { RunContext } from './context';

/** Applies one chunk of an import's rows (built by the imports work). */
export async function applyImportChunk(_ctx: RunContext, _env: Bindings, message: Extract<OperationMessage, { kind: 'import_chunk' }>): Promise<void> {
  throw new Error(`imports are not built yet (import ${message.importId})`);
}
