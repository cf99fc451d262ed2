// The baseline: a bare Fastify route with the same JSON shape size class, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ type: 'person', id: 'bench', email: 'bench@hygie.test' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
