import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * An async function as a React event handler. React ignores what a handler returns, so the
 * promise is dropped here, in the open: a rejection still reaches the global handlers (and error
 * reporting) as before.
 */
export function voidHandler<A extends unknown[]>(
  handler: (...args: A) => Promise<unknown>,
): (...args: A) => void {
  return (...args) => {
    void handler(...args);
  };
}

/**
 * The props binding a text field (MUI's, or components/plain's) to a field registered with
 * react-hook-form. Its change and
 * blur handlers return the promise of the field's validation, which React ignores.
 */
export function registeredField({ name, ref, onChange, onBlur }: UseFormRegisterReturn) {
  return {
    name,
    inputRef: ref,
    onChange: voidHandler(onChange),
    onBlur: voidHandler(onBlur),
  };
}
