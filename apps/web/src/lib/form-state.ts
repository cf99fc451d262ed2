import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

/** A form's values: one string per text field. */
export type TextValues = Record<string, string>;

/** A field's error: a `validation` key (components show it with lib/validation-message). */
export interface FormFieldError {
  /** 'schema' when the form's own check refused the value, 'server' when the server did. */
  type: 'schema' | 'server';
  message: string;
}

export type FormErrors<T extends TextValues> = Partial<Record<keyof T & string, FormFieldError>>;

/**
 * A form's check of its values: the output to submit (trimmed…), or each refused field's first
 * message (a `validation` key). A zod schema is one through lib/schema-check.ts; the login form's
 * is a plain function, so the first load carries no zod (docs/web.md).
 */
export type FormCheck<T extends TextValues, Output> = (
  values: T,
) => { success: true; data: Output } | { success: false; errors: Partial<Record<string, string>> };

/** The props binding a text field (components/plain's, or an `<input>`) to the form. */
export interface FormFieldProps {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  inputRef: (element: HTMLInputElement | null) => void;
}

function fieldErrors(
  messages: Partial<Record<string, string>>,
): Partial<Record<string, FormFieldError>> {
  const errors: Partial<Record<string, FormFieldError>> = {};
  for (const [name, message] of Object.entries(messages)) {
    if (message !== undefined) errors[name] = { type: 'schema', message };
  }
  return errors;
}

/**
 * The state of a small form of text fields, checked by `check`: what react-hook-form does for
 * the first screens (its mode `onSubmit`, revalidation `onChange`), without its 40 kB on the login
 * page's first load (docs/web.md). Nothing is checked before the first submit; after it, a
 * field's error follows each change. A refused submit focuses the first invalid field (in
 * `defaultValues`' order); an accepted one hands the check's output (trimmed…) to `onValid`.
 * Controlled fields: the page the server draws shows the values it was given.
 */
export function useFormState<T extends TextValues, Output>(
  check: FormCheck<T, Output>,
  defaultValues: T,
) {
  const [values, setValues] = useState<T>(defaultValues);
  const [errors, setErrors] = useState<FormErrors<T>>({});
  const [touched, setTouched] = useState<Partial<Record<keyof T & string, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // The latest values, for what runs outside a render (a change, a submit, getValues), updated
  // with the state; and the inputs, to focus.
  const latest = useRef(values);
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const names = Object.keys(defaultValues);

  const focus = (name: string) => inputs.current.get(name)?.focus();

  const field = (name: keyof T & string): FormFieldProps => ({
    name,
    value: values[name] ?? '',
    onChange: (event) => {
      const next: T = { ...latest.current, [name]: event.target.value };
      latest.current = next;
      setValues(next);
      if (!submitted) return;
      const checked = check(next);
      const error = checked.success ? undefined : fieldErrors(checked.errors)[name];
      setErrors((current) => ({ ...current, [name]: error }));
    },
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    inputRef: (element) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
  });

  /** The form's submit handler: checks every field, then calls `onValid` with the output. */
  const handleSubmit =
    (onValid: (output: Output) => unknown) =>
    (event?: FormEvent): void => {
      event?.preventDefault();
      setSubmitted(true);
      const checked = check(latest.current);
      if (!checked.success) {
        const found = fieldErrors(checked.errors);
        setErrors(found);
        const first = names.find((name) => found[name]);
        if (first) focus(first);
        return;
      }
      setErrors({});
      const result = onValid(checked.data);
      if (result instanceof Promise) {
        setSubmitting(true);
        void result.finally(() => setSubmitting(false));
      }
    };

  /** Puts an error on a field (a server's refusal), focusing it when asked. */
  const setError = (
    name: keyof T & string,
    error: FormFieldError,
    { shouldFocus = false }: { shouldFocus?: boolean } = {},
  ) => {
    setErrors((current) => ({ ...current, [name]: error }));
    if (shouldFocus) focus(name);
  };

  return {
    values,
    errors,
    touched,
    submitted,
    submitting,
    field,
    handleSubmit,
    setError,
    getValues: (): T => latest.current,
  };
}
