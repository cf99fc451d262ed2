import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../app/i18n';
import { expectNoAxeViolations } from '../test/a11y';
import { codeDigits } from '../test/code';
import { CodeInput } from './code-input';
import { StepHeading } from './step-heading';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('fr');
});

function Harness({ initial = '', error }: { initial?: string; error?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <I18nextProvider i18n={i18n}>
      <CodeInput label="Code de vérification" value={value} onChange={setValue} error={error} />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        reset
      </button>
    </I18nextProvider>
  );
}

const value = () => screen.getByTestId('value').textContent;

describe('CodeInput', () => {
  it('has six labelled single-digit numeric fields in a named group', async () => {
    render(<Harness />);
    const group = screen.getByRole('group', { name: 'Code de vérification' });
    expect(group.getAttribute('data-testid')).toBe('code-input');
    const digits = codeDigits();
    expect(digits).toHaveLength(6);
    digits.forEach((digit, index) => {
      expect(digit.getAttribute('aria-label')).toBe(`Chiffre ${index + 1} sur 6`);
      expect(digit.getAttribute('inputmode')).toBe('numeric');
      expect(digit.getAttribute('pattern')).toBe('[0-9]');
    });
    expect(digits[0]?.getAttribute('autocomplete')).toBe('one-time-code');
    expect(digits.slice(1).every((digit) => digit.getAttribute('autocomplete') === 'off')).toBe(
      true,
    );
    expect(screen.getByLabelText('Chiffre 3 sur 6')).toBe(digits[2]);
    await expectNoAxeViolations();
  });

  it('moves to the next field as digits are typed', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    const digits = codeDigits();
    await user.click(digits[0]!);
    await user.keyboard('12');
    expect(document.activeElement).toBe(digits[2]);
    await user.keyboard('3456');
    expect(digits.map((digit) => digit.value).join('')).toBe('123456');
    expect(value()).toBe('123456');
    expect(document.activeElement).toBe(digits[5]);
  });

  it('ignores anything but digits', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    await user.click(codeDigits()[0]!);
    await user.keyboard('a-1 b2');
    expect(value()).toBe('12');
    expect(document.activeElement).toBe(codeDigits()[2]);
  });

  it('goes back with Backspace in an empty field, clearing the previous digit', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    const digits = codeDigits();
    await user.click(digits[0]!);
    await user.keyboard('123');
    expect(document.activeElement).toBe(digits[3]);
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(digits[2]);
    expect(value()).toBe('12');
    await user.keyboard('{Backspace}{Backspace}');
    expect(document.activeElement).toBe(digits[0]);
    expect(value()).toBe('');
  });

  it('moves with the arrow keys', async () => {
    render(<Harness initial="123456" />);
    const user = userEvent.setup();
    const digits = codeDigits();
    await user.click(digits[2]!);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(digits[3]);
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(digits[1]);
    await user.keyboard('9');
    expect(value()).toBe('193456');
  });

  it.each([0, 3, 5])('fills every field when "123 456" is pasted in field %i', async (index) => {
    render(<Harness />);
    const user = userEvent.setup();
    await user.click(codeDigits()[index]!);
    await user.paste('123 456');
    expect(codeDigits().map((digit) => digit.value)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(value()).toBe('123456');
    expect(document.activeElement).toBe(codeDigits()[5]);
  });

  it('fills from the field when part of a code is pasted', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    await user.click(codeDigits()[0]!);
    await user.keyboard('12');
    await user.paste('34');
    expect(value()).toBe('1234');
    expect(document.activeElement).toBe(codeDigits()[4]);
  });

  it('spreads a code autofilled into the first field', async () => {
    render(<Harness />);
    const [first] = codeDigits();
    // An SMS autofill sets the whole code on the one-time-code field at once.
    fireEvent.change(first!, { target: { value: '654 321' } });
    await waitFor(() => expect(value()).toBe('654321'));
    expect(
      codeDigits()
        .map((digit) => digit.value)
        .join(''),
    ).toBe('654321');
  });

  it('follows a value set by the form (prefill, reset)', async () => {
    render(<Harness initial="987654" />);
    expect(
      codeDigits()
        .map((digit) => digit.value)
        .join(''),
    ).toBe('987654');
    await userEvent.setup().click(screen.getByRole('button', { name: 'reset' }));
    expect(codeDigits().every((digit) => digit.value === '')).toBe(true);
  });

  it('marks every digit invalid and describes them with the error', () => {
    render(<Harness error="Le code doit comporter 6 chiffres." />);
    const help = screen.getByText('Le code doit comporter 6 chiffres.');
    for (const digit of codeDigits()) {
      expect(digit.getAttribute('aria-invalid')).toBe('true');
      expect(digit.getAttribute('aria-describedby')).toBe(help.id);
    }
  });

  it('puts the focus on the first digit when a code step opens, after its heading', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <StepHeading focusOnMount>Saisissez le code</StepHeading>
        <CodeInput label="Code de vérification" value="" onChange={() => {}} autoFocus />
      </I18nextProvider>,
    );
    await waitFor(() => expect(document.activeElement).toBe(codeDigits()[0]));
  });

  it('leaves the focus alone without autoFocus', () => {
    render(<Harness />);
    expect(codeDigits()).not.toContain(document.activeElement);
  });
});
