import * as z from 'zod/mini';
import type { FormCheck, TextValues } from './form-state';

/**
 * A zod schema as a form's check (lib/form-state.ts): each field's first issue, as react-hook-form's
 * zod resolver gives it (`criteriaMode: firstError`), or the schema's output.
 */
export function schemaCheck<T extends TextValues, Output>(
  schema: z.core.$ZodType<Output, T>,
): FormCheck<T, Output> {
  return (values) => {
    const parsed = z.safeParse(schema, values);
    if (parsed.success) return { success: true, data: parsed.data };
    const errors: Partial<Record<string, string>> = {};
    for (const issue of parsed.error.issues) {
      const [name] = issue.path;
      if (typeof name === 'string' && errors[name] === undefined) errors[name] = issue.message;
    }
    return { success: false, errors };
  };
}
