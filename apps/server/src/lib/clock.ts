/** The time source; tests swap it to move time forward. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
