/**
 * One clock for every table on screen: a single interval, running only while some component
 * listens, shared by up to 24 tiles instead of one timer each.
 */
import { onBeforeUnmount, shallowRef, type Ref } from 'vue';

const now = shallowRef(Date.now());
let users = 0;
let timer: ReturnType<typeof setInterval> | null = null;

/** The current time, updated about every `TICK_MS`; stops when the last user unmounts. */
export function useNow(): Readonly<Ref<number>> {
  users++;
  if (timer === null) {
    // The time is read again at once: while no one listened it stood still.
    now.value = Date.now();
    timer = setInterval(() => (now.value = Date.now()), TICK_MS);
  }
  onBeforeUnmount(() => {
    users--;
    if (users === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  });
  return now;
}

export const TICK_MS = 250;
