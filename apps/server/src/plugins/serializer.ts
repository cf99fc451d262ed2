import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ZodRouteSchema = Parameters<typeof zodSerializerCompiler>[0]['schema'];
type JsonSchema = Record<string, unknown>;

/**
 * Responses are written by fast-json-stringify from their zod schema's JSON Schema (output side):
 * only the declared properties are written, as zod's serialiser would, at a third of its cost
 * (docs/performance.md "Session check"). A schema JSON Schema cannot express (a transform) keeps
 * zod's serialiser (which encodes), and so does a union (fast-json-stringify would validate each
 * value to choose a branch) — but for a discriminated union (the error envelope, one variant per
 * code), whose variant the discriminator names: each variant is written by a serialiser of its
 * own. `crossCheck` (the test suites) writes every response both ways and fails on any
 * difference, zod's validation included, so the fast path can never drift from the schemas.
 */
export function responseSerializer(options: {
  crossCheck: boolean;
}): FastifySerializerCompiler<ZodRouteSchema> {
  return (route) => {
    const viaZod = zodSerializerCompiler(route);
    // Compiled at the first response, not at start-up (hundreds of route and status schemas),
    // and once per schema (the error envelope serves every route).
    let fast: Serialize | null | undefined;
    return (data) => {
      fast ??= fastSerializerOf(route.schema);
      if (!fast) return viaZod(data);
      if (!options.crossCheck) return fast(data) ?? viaZod(data);
      const expected = viaZod(data);
      const written = fast(data) ?? expected;
      if (written !== expected) {
        throw new Error(
          `${route.method} ${route.url} ${route.httpStatus}: the fast serialiser wrote ${written}, zod ${expected}`,
        );
      }
      return written;
    };
  };
}

/** A fast serialiser: the JSON text, or undefined for a value zod is to write. */
type Serialize = (data: unknown) => string | undefined;
const compiled = new WeakMap<object, Serialize | null>();

/** The fast serialiser of a response schema, or null where zod writes the response. */
export function fastSerializerOf(schema: ZodRouteSchema): Serialize | null {
  // Any zod schema, classic or mini (the domain writes the first screens' schemas in zod/mini).
  if (!(schema instanceof z.core.$ZodType)) return null;
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  const serialize = compile(schema);
  compiled.set(schema, serialize);
  return serialize;
}

function compile(schema: z.core.$ZodType): Serialize | null {
  if (schema instanceof z.ZodDiscriminatedUnion) return byDiscriminator(schema);
  const json = jsonSchemaOf(schema);
  if (!json) return null;
  const plain = simplified(json);
  // A union left after that (one without a discriminator) would have fast-json-stringify validate
  // each value against its branches (formats included, stricter than zod): zod writes those.
  if (hasBranches(plain)) return null;
  return fastJson(plain);
}

/** The schema's JSON Schema (output side), or null where JSON Schema cannot express it. */
function jsonSchemaOf(schema: z.core.$ZodType): JsonSchema | null {
  try {
    return z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'throw',
      cycles: 'throw',
      reused: 'inline',
    });
  } catch {
    return null;
  }
}

/**
 * A discriminated union written by the serialiser of the variant its discriminator names (the
 * discriminator's value read from each variant's JSON Schema, `const`): nothing is validated to
 * choose it. A value that names no variant, or a variant that keeps zod's serialiser, is left to
 * zod (undefined), which writes it or refuses it as before.
 */
function byDiscriminator(schema: z.ZodDiscriminatedUnion): Serialize | null {
  const key = schema.def.discriminator;
  const variants = new Map<unknown, Serialize>();
  for (const option of schema.options) {
    const property = jsonSchemaOf(option)?.properties;
    const value = isObject(property) ? property[key] : undefined;
    const serialize = compile(option);
    if (isObject(value) && 'const' in value && serialize) variants.set(value.const, serialize);
  }
  if (variants.size === 0) return null;
  return (data) => (isObject(data) ? variants.get(data[key])?.(data) : undefined);
}

const BRANCHING = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if']);

function hasBranches(schema: JsonSchema): boolean {
  return Object.entries(schema).some(
    ([key, value]) =>
      BRANCHING.has(key) ||
      (Array.isArray(value) && value.some((v) => isObject(v) && hasBranches(v))) ||
      (isObject(value) && hasBranches(value)),
  );
}

/**
 * `anyOf: [{type: T, …}, {type: 'null'}]` (zod's nullable) as `type: [T, 'null']`: the same
 * output, without fast-json-stringify validating each value to choose a branch.
 */
function simplified(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const list: unknown[] | null = Array.isArray(value) ? value : null;
    const nullable = key === 'anyOf' && list ? nullableOf(list) : null;
    if (nullable) {
      Object.assign(out, nullable);
    } else if (list) {
      out[key] = list.map((v) => (isObject(v) ? simplified(v) : v));
    } else if (isObject(value)) {
      out[key] = simplified(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function nullableOf(branches: unknown[]): JsonSchema | null {
  if (branches.length !== 2) return null;
  const [first, second] = branches;
  if (!isObject(first) || !isObject(second)) return null;
  const isNull = (s: JsonSchema) => s.type === 'null' && Object.keys(s).length === 1;
  const other = isNull(second) ? first : isNull(first) ? second : null;
  if (!other || typeof other.type !== 'string' || other.type === 'object' || other.type === 'array')
    return null;
  return { ...other, type: [other.type, 'null'] };
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
