import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse, type $ZodTypeDef } from 'zod/v4/core';

/**
 * Parts of a schema whose parse would not give back what it was handed: a transform, a codec, a default (fills a
 * missing value), a catch (replaces an invalid one). Encoding (what fastify-type-provider-zod does with a response)
 * and parsing differ only on these.
 */
const CHANGES_VALUE = new Set(['transform', 'default', 'prefault', 'catch']);

/** The first part of `schema` that would change a value on its way through, as a path, or undefined. */
export function valueChangingPart(schema: $ZodType, path = '', seen = new Set<$ZodType>()): string | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const def = schema._zod.def as $ZodTypeDef & Record<string, unknown>;
  if (CHANGES_VALUE.has(def.type) || (def.type === 'pipe' && def.transform)) return `${path || '(root)'}: ${def.type}`;
  const children: [string, unknown][] = [];
  switch (def.type) {
    case 'object':
      children.push(...Object.entries(def.shape as Record<string, unknown>).map(([key, child]) => [`${path}.${key}`, child] as [string, unknown]));
      children.push([`${path}[*]`, def.catchall]);
      break;
    case 'array':
    case 'set':
      children.push([`${path}[]`, def.element ?? def.valueType]);
      break;
    case 'record':
    case 'map':
      children.push([`${path}[key]`, def.keyType], [`${path}[*]`, def.valueType]);
      break;
    case 'union':
      children.push(...(def.options as unknown[]).map((option, index) => [`${path}|${index}`, option] as [string, unknown]));
      break;
    case 'intersection':
      children.push([path, def.left], [path, def.right]);
      break;
    case 'tuple':
      children.push(...(def.items as unknown[]).map((item, index) => [`${path}[${index}]`, item] as [string, unknown]));
      children.push([`${path}[...]`, def.rest]);
      break;
    case 'pipe':
      children.push([path, def.in], [path, def.out]);
      break;
    case 'lazy':
      children.push([path, (def.getter as () => unknown)()]);
      break;
    default:
      children.push([path, def.innerType]);
  }
  for (const [childPath, child] of children) {
    if (!(child instanceof $ZodType)) continue;
    const found = valueChangingPart(child, childPath, seen);
    if (found) return found;
  }
  return undefined;
}

/**
 * Response bodies checked against their route's zod schema (unknown keys dropped, types and checks enforced), then
 * written as JSON. fastify-type-provider-zod's own compiler encodes (`z.safeEncode`), which runs each part of the
 * schema twice (a first pass without checks, then again with them) with new context objects: about 1 µs of a
 * two-field answer, against 0.05 µs for a parse (docs/performance.md, "GET /api/config"). The two give the same
 * body unless the schema transforms, defaults or catches; such a response schema is refused when its route is
 * registered, so the difference can never reach an answer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema: maybeSchema, method, url }) => {
  const schema = responseSchema(maybeSchema);
  const changing = valueChangingPart(schema);
  if (changing) throw new Error(`The response schema of ${method} ${url} changes values (${changing}); a response schema only describes.`);
  return (data: unknown) => {
    const result = safeParse(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/** A route's response schema, given either as the zod schema or as `{ properties: schema }` (as the type provider accepts). */
function responseSchema(maybeSchema: unknown): $ZodType {
  const schema = maybeSchema instanceof $ZodType ? maybeSchema : (maybeSchema as { properties?: unknown } | undefined)?.properties;
  if (!(schema instanceof $ZodType)) throw new Error(`A response schema is not a zod schema: ${JSON.stringify(maybeSchema)}`);
  return schema;
}
