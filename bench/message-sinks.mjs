// What a production server sends its messages to, for the benchmarks: an SMTP relay (smtp-server,
// the ecosystem's own) and an SMS gateway (HTTP) that accept everything and keep nothing, on
// SINK_SMTP_PORT and SINK_SMS_PORT. With nothing listening, every message of a benchmark's sign-ins
// would fail and be retried for minutes, and those retries would run during the phases measured as
// idle; here each is sent once, as a working relay takes it.
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData: (stream, _session, callback) => {
    stream.on('end', () => callback());
    stream.resume();
  },
});
smtp.listen(Number(process.env.SINK_SMTP_PORT), '127.0.0.1');

const sms = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
sms.listen(Number(process.env.SINK_SMS_PORT), '127.0.0.1', () => console.log('sinks ready'));
