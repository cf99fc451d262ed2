// The sign-in's second baseline: a bare Fastify route that only verifies the password (argon2id of
// the portal's default parameters, @node-rs/argon2 on libuv's pool as argon2-baseline.mjs) and
// answers as the portal's first stage does. What an HTTP sign-in gets when it does nothing else:
// the most the portal's sign-in can reach against the raw verifications on this machine.
import { hash, verify } from '@node-rs/argon2';
import Fastify from 'fastify';

const PASSWORD = process.env.BENCH_PASSWORD ?? 'Quiet-Harbour-5127';
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2, outputLen: 32 };
const encoded = await hash(PASSWORD, options);

const app = Fastify({ logger: false });
app.get('/ready', async () => ({ ready: true }));
app.post('/login', async (request, reply) => {
  const { password } = request.body;
  if (!(await verify(encoded, password))) return reply.code(400).send({ code: 'bad_credentials' });
  return reply.code(401).send({ code: 'two_factor_authentication_required' });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
