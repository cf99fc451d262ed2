import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BRANDS, LANGUAGES } from '@hygie/domain';
import { SAMPLE_PARAMS } from '../../messaging/samples.js';
import type { LetterSettings } from '../../messaging/templates.js';
import { isTemplateName, renderMessage, TEMPLATE_NAMES } from '../../messaging/templates.js';

/** A rendered e-mail shows its own inline styles and the portal's logo, nothing else. */
const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: http:";

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The index: every template, in every language and brand, as HTML and as plain text. */
function previewIndex(): string {
  const rows = TEMPLATE_NAMES.map((name) => {
    const cells = LANGUAGES.flatMap((language) =>
      BRANDS.map((brand) => {
        const href = `/api/dev/emails/${name}?language=${language}&brand=${brand}`;
        return `<td><a href="${href}">${language} · ${brand}</a> (<a href="${href}&format=text">text</a>)</td>`;
      }),
    ).join('');
    return `<tr><th scope="row">${name}</th>${cells}</tr>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>E-mail preview</title></head>
<body style="font-family: Arial, sans-serif;">
<h1>E-mail preview (development only)</h1>
<p>Every template in every language and brand, rendered with sample parameters.</p>
<table>
<caption>Templates</caption>
${rows}
</table>
</body></html>`;
}

/**
 * Development only: every e-mail template × language × brand, rendered with sample parameters
 * (no message of the outbox, no secret). Not registered in production (404 there).
 */
export const emailPreviewRoutes: FastifyPluginAsyncZod<{ letter: LetterSettings }> = (
  app,
  { letter },
) => {
  app.get(
    '/api/dev/emails',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['dev'],
        summary: 'E-mail preview index (development only)',
        response: {
          200: {
            description: 'Links to every template in every language and brand',
            content: { 'text/html': { schema: z.string() } },
          },
        },
      },
    },
    async (_request, reply) =>
      reply
        .header('content-security-policy', PREVIEW_CSP)
        .type('text/html; charset=utf-8')
        .send(previewIndex()),
  );
  app.get(
    '/api/dev/emails/:template',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['dev'],
        summary: 'One e-mail template rendered with sample parameters (development only)',
        params: z.object({ template: z.string().refine(isTemplateName) }),
        querystring: z.object({
          language: z.enum(LANGUAGES).default('fr'),
          brand: z.enum(BRANDS).default('hygie'),
          format: z.enum(['html', 'text']).default('html'),
        }),
        response: {
          200: {
            description: 'The e-mail as its recipient sees it (HTML), or its plain-text part',
            content: {
              'text/html': { schema: z.string() },
              'text/plain': { schema: z.string() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { template } = request.params;
      const { language, brand, format } = request.query;
      if (!isTemplateName(template)) return reply.callNotFound();
      const message = renderMessage(template, language, brand, SAMPLE_PARAMS, letter);
      if (format === 'text') {
        return reply
          .type('text/plain; charset=utf-8')
          .send(`Subject: ${message.subject}\n\n${message.text}\n\nSMS: ${message.sms}\n`);
      }
      return reply
        .header('content-security-policy', PREVIEW_CSP)
        .type('text/html; charset=utf-8')
        .send(message.html.replace('<title>', `<title>${escapeHtml(template)} · `));
    },
  );
  return Promise.resolve();
};
