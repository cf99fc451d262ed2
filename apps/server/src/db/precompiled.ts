import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Db } from './connection.js';

/**
 * Where a value goes in a precompiled statement: its key among the statement's values, and its
 * index when the value under that key is a list.
 */
class Slot {
  constructor(
    readonly key: PropertyKey,
    readonly index: number | undefined,
  ) {}

  valueIn(values: object): unknown {
    const value: unknown = Reflect.get(values, this.key);
    if (this.index === undefined) return value;
    return Array.isArray(value) ? value[this.index] : undefined;
  }
}

/**
 * The placeholders a precompiled statement is built with: `$('email')` stands for the value under
 * `email`, `$('steps', 2)` for the third of the list under `steps`.
 */
export interface Slots<P> {
  <K extends keyof P>(key: K): RawBuilder<P[K]>;
  <K extends keyof P>(key: K, index: number): RawBuilder<ElementOf<P[K]>>;
}

type ElementOf<T> = T extends readonly (infer E)[] ? E : never;

/** The trees of the statements compiled once: each run of one sends its template's tree. */
const compiledTrees = new WeakSet<object>();

/**
 * Registers a statement compiled once by its caller, its values set at each run (the session
 * check's own, `sessions/repository.ts`), beside the `precompiled` ones: what `isCompiledOnce`
 * recognises.
 */
export function compiledOnce<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  compiledTrees.add(query.query);
  return query;
}

/** Whether a statement sent is one compiled once (`precompiled`, `compiledOnce`), not built for its run. */
export function isCompiledOnce(query: CompiledQuery): boolean {
  return compiledTrees.has(query.query);
}

/** A statement of fixed text, built and compiled once per database, run with each call's values. */
export interface Precompiled<P extends object, R> {
  /** The statement with `values` in their places, ready for `db.executeQuery`. */
  compile(db: Db, values: P): CompiledQuery<R>;
  /** Its rows. */
  all(db: Db, values: P): Promise<R[]>;
  /** Its first row, if any. */
  first(db: Db, values: P): Promise<R | undefined>;
  /** Kysely's result (`numAffectedRows` of a write). */
  run(db: Db, values: P): Promise<QueryResult<R>>;
}

/**
 * A statement of a hot path built and compiled by Kysely once per database rather than at every
 * run: building a statement (its nodes, each frozen) and compiling it cost 4–11 µs of CPU a
 * statement on the 2-core machines the benchmarks ran on, more than SQLite takes to run most of
 * them, and about a sixth of a password sign-in's event-loop time before the sign-in's were
 * precompiled. `build` gets the database and placeholders (`$('key')`, a typed expression of the
 * value under `key`) and never the values themselves, so the text cannot depend on them: a
 * statement whose shape does (a list's length, an optional filter) is not precompiled, or is one
 * precompiled statement per shape. Compiled per dialect adapter, which a database's transactions
 * share with it; the text is exactly the one Kysely builds with the values in place.
 */
export function precompiled<P extends object, R>(
  build: (db: Db, $: Slots<P>) => Compilable<R>,
): Precompiled<P, R> {
  const templates = new WeakMap<object, CompiledQuery<R>>();
  // Typed `never` here only so that one function is each of Slots' signatures: those give every
  // placeholder its value's type.
  const slot: Slots<P> = (key: keyof P, index?: number) => sql<never>`${new Slot(key, index)}`;
  const compile = (db: Db, values: P): CompiledQuery<R> => {
    const { adapter } = db.getExecutor();
    let template = templates.get(adapter);
    if (!template) {
      template = compiledOnce(build(db, slot).compile());
      templates.set(adapter, template);
    }
    const parameters = template.parameters.map((value) =>
      value instanceof Slot ? value.valueIn(values) : value,
    );
    return { ...template, parameters };
  };
  return {
    compile,
    all: async (db, values) => (await db.executeQuery(compile(db, values))).rows,
    first: async (db, values) => (await db.executeQuery(compile(db, values))).rows[0],
    run: (db, values) => db.executeQuery(compile(db, values)),
  };
}

/**
 * One precompiled statement for each number of values of a list (`key in ($1, …)`): `build` gets
 * the list's placeholders (`$(0)`, `$(1)` …) and their count. For lists of a few fixed lengths (a
 * sign-in's throttle keys, a setting group's names).
 */
export function precompiledByCount<V, R>(
  build: (db: Db, $: Slots<readonly V[]>, count: number) => Compilable<R>,
): (db: Db, values: readonly V[]) => Promise<R[]> {
  const byCount = new Map<number, Precompiled<readonly V[], R>>();
  return (db, values) => {
    const count = values.length;
    let query = byCount.get(count);
    if (!query) {
      query = precompiled((db: Db, $: Slots<readonly V[]>) => build(db, $, count));
      byCount.set(count, query);
    }
    return query.all(db, values);
  };
}
