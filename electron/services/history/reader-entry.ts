/** The reader's own entry (tests and development start it through tsx; the app through worker.ts's bundle). */
import { workerData } from 'node:worker_threads';
import type { ReaderData } from './reader';
import { runReader } from './reader-worker';

const data = workerData as ReaderData | undefined;
if (data?.cercleHistoryReader === true) runReader(data);
