/**
 * What the history view remembers while the player goes to the replayer and back: the filters, the
 * sort and the hand picked. Plain refs, one set for the window's lifetime.
 */
import { ref } from 'vue';
import { emptyForm, type FilterForm } from './filter';
import type { SortDir, SortKey } from './pager';

export const historyForm = ref<FilterForm>(emptyForm());
export const historySort = ref<SortKey>('time');
export const historyDir = ref<SortDir>('desc');
export const historySelected = ref<string | null>(null);
