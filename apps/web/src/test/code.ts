import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** The digit inputs of the (only) CodeInput on the page, in order. */
export function codeDigits(): HTMLInputElement[] {
  return within(screen.getByTestId('code-input')).getAllByRole<HTMLInputElement>('textbox');
}

/** Types a whole code into the CodeInput, digit by digit from the first field. */
export async function typeCode(user: UserEvent, code: string): Promise<void> {
  const [first] = codeDigits();
  if (!first) throw new Error('no code input');
  await user.click(first);
  await user.keyboard(code);
}
