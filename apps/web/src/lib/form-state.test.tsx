import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { useFormState } from './form-state';
import { schemaCheck } from './schema-check';

const schema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, { error: 'field_required' })),
  password: z.string().check(z.minLength(8, { error: 'password_too_short' })),
});
type Output = z.infer<typeof schema>;
const FIELDS: (keyof Output)[] = ['username', 'password'];

function Form({
  onValid,
  onRead = () => {},
  username = '',
}: {
  onValid: (output: Output) => unknown;
  onRead?: (values: { username: string; password: string }) => void;
  username?: string;
}) {
  const form = useFormState(schemaCheck(schema), { username, password: '' });
  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)}>
      {FIELDS.map((name) => {
        const { inputRef, ...props } = form.field(name);
        return (
          <div key={name}>
            <label htmlFor={name}>{name}</label>
            <input id={name} ref={inputRef} {...props} />
            <output data-testid={`${name}-error`}>
              {form.errors[name] ? `${form.errors[name].type}:${form.errors[name].message}` : ''}
            </output>
            <output data-testid={`${name}-touched`}>{form.touched[name] ? 'touched' : ''}</output>
          </div>
        );
      })}
      <button type="submit" disabled={form.submitting}>
        Send
      </button>
      <button
        type="button"
        onClick={() =>
          form.setError('username', { type: 'server', message: 'unknown' }, { shouldFocus: true })
        }
      >
        Refuse
      </button>
      <button type="button" onClick={() => onRead(form.getValues())}>
        Read
      </button>
    </form>
  );
}

const errorOf = (name: string) => screen.getByTestId(`${name}-error`).textContent;

describe('useFormState', () => {
  it('checks nothing before the first submit', async () => {
    const user = userEvent.setup();
    render(<Form onValid={vi.fn()} />);
    await user.type(screen.getByLabelText('password'), 'short');
    await user.clear(screen.getByLabelText('password'));
    await user.tab();
    expect(errorOf('username')).toBe('');
    expect(errorOf('password')).toBe('');
    expect(screen.getByTestId('password-touched').textContent).toBe('touched');
    expect(screen.getByTestId('username-touched').textContent).toBe('');
  });

  it('refuses an invalid submit: each field’s first error, focus on the first invalid field', async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    render(<Form onValid={onValid} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(errorOf('username')).toBe('schema:field_required');
    expect(errorOf('password')).toBe('schema:password_too_short');
    expect(document.activeElement).toBe(screen.getByLabelText('username'));
    expect(onValid).not.toHaveBeenCalled();
  });

  it('focuses the first field in the form’s order that is invalid', async () => {
    const user = userEvent.setup();
    render(<Form onValid={vi.fn()} username="marie" />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(errorOf('username')).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('password'));
  });

  it('after a submit, updates the changed field’s error on each change, and only its', async () => {
    const user = userEvent.setup();
    render(<Form onValid={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.type(screen.getByLabelText('username'), 'm');
    expect(errorOf('username')).toBe('');
    expect(errorOf('password')).toBe('schema:password_too_short');
    await user.clear(screen.getByLabelText('username'));
    expect(errorOf('username')).toBe('schema:field_required');
    await user.type(screen.getByLabelText('password'), 'long enough');
    expect(errorOf('password')).toBe('');
  });

  it('hands the schema’s output to the submit, with the keyboard too', async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    render(<Form onValid={onValid} username="  marie  " />);
    expect(screen.getByLabelText<HTMLInputElement>('username').value).toBe('  marie  ');
    await user.type(screen.getByLabelText('password'), 'Secret123{Enter}');
    expect(onValid).toHaveBeenCalledExactlyOnceWith({ username: 'marie', password: 'Secret123' });
  });

  it('is submitting while the submit’s promise is pending', async () => {
    const user = userEvent.setup();
    let settle = () => {};
    const onValid = () =>
      new Promise<void>((resolve) => {
        settle = resolve;
      });
    render(<Form onValid={onValid} username="marie" />);
    await user.type(screen.getByLabelText('password'), 'Secret123');
    const send = screen.getByRole<HTMLButtonElement>('button', { name: 'Send' });
    await user.click(send);
    expect(send.disabled).toBe(true);
    await act(() => {
      settle();
      return Promise.resolve();
    });
    expect(send.disabled).toBe(false);
  });

  it('shows a server’s error on a field, focused when asked, until the next submit', async () => {
    const user = userEvent.setup();
    render(<Form onValid={vi.fn()} username="marie" />);
    await user.click(screen.getByRole('button', { name: 'Refuse' }));
    expect(errorOf('username')).toBe('server:unknown');
    expect(document.activeElement).toBe(screen.getByLabelText('username'));
    await user.type(screen.getByLabelText('password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(errorOf('username')).toBe('');
  });

  it('gives the values as typed so far', async () => {
    const user = userEvent.setup();
    const onRead = vi.fn();
    render(<Form onValid={vi.fn()} onRead={onRead} />);
    await user.type(screen.getByLabelText('username'), ' jeanne');
    await user.click(screen.getByRole('button', { name: 'Read' }));
    expect(onRead).toHaveBeenCalledWith({ username: ' jeanne', password: '' });
  });
});
