/**
 * A request URL fit for the logs: the path, and the names of its query parameters without their
 * values. Query strings carry one-time codes, link tokens, e-mail addresses and search terms
 * (`/security/first-login?personIdentifier=…&code=…`); none of them belongs in a log line.
 */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const names = url
    .slice(question + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=')[0] ?? ''}=…`);
  return `${url.slice(0, question)}?${names.join('&')}`;
}
