import type { Bindings, OperationMessage } from '../env';
import type { RunContext } from './context';

/** Writes one export's CSV into R2 (built by the exports work). */
export async function runExport(_ctx: RunContext, _env: Bindings, message: Extract<OperationMessage, { kind: 'export' }>): Promise<void> {
  throw new Error(`exports are not built yet (export ${message.exportId})`);
}
