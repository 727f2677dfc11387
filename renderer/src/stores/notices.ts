import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Notice {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

/** How long a notice stays before it closes by itself; a button closes it sooner. */
export const NOTICE_MS = 8000;

/**
 * Short messages the player must see wherever they are: an action that could not be sent and why, a refused
 * amount. Each closes by itself or with its button.
 */
export const useNoticesStore = defineStore('notices', () => {
  const list = ref<Notice[]>([]);
  let next = 1;

  function close(id: number): void {
    list.value = list.value.filter((n) => n.id !== id);
  }

  function push(text: string, kind: Notice['kind'] = 'error'): void {
    // The same message twice in a row (several clicks while offline) is shown once.
    if (list.value.some((n) => n.text === text)) return;
    const id = next++;
    list.value = [...list.value, { id, text, kind }].slice(-4);
    setTimeout(() => close(id), NOTICE_MS);
  }

  return { list, push, close };
});
