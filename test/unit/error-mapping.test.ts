import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/api/errors';
import { AppError } from '../../src/domain/errors';
import { createLogger } from '../../src/logger';

function respond(error: unknown) {
  const answer: { status?: number; body?: any; headers: Record<string, string> } = { headers: {} };
  const res = {
    setHeader: (name: string, value: string) => void (answer.headers[name] = value),
    status(code: number) {
      answer.status = code;
      return this;
    },
    json: (body: unknown) => void (answer.body = body),
  };
  const handle = errorHandler(createLogger('test', 'silent'));
  handle(error, { method: 'POST', path: '/v1/instances', complete: true } as never, res as never, () => undefined);
  return answer;
}

describe('error mapping', () => {
  it('answers an AppError with its code, status and details', () => {
    const answer = respond(new AppError('QUOTA_EXCEEDED', 'over', { resource: 'vcpus' }));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ error: { code: 'QUOTA_EXCEEDED', message: 'over', details: { resource: 'vcpus' } } });
  });

  it('sets Retry-After when the error says when to retry', () => {
    const answer = respond(new AppError('RATE_LIMITED', 'slow down', { retryAfterSeconds: 42 }));
    expect(answer.status).toBe(429);
    expect(answer.headers['Retry-After']).toBe('42');
  });

  it.each([
    ['a transaction that could not start in time', Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' })],
    [
      'a transaction that ran past its timeout (a long lock wait)',
      Object.assign(new Error('Transaction API error: A commit cannot be executed on an expired transaction. The timeout for this transaction was 30000 ms, however 30512 ms passed since the start of the transaction.'), { code: 'P2028' }),
    ],
    ['a deadlock victim', new Error('deadlock detected')],
    ['a serialization failure', Object.assign(new Error('write conflict'), { code: 'P2034' })],
  ])('turns %s into 503 SERVICE_BUSY with Retry-After, not a 500', (_what, error) => {
    const answer = respond(error);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_BUSY');
    expect(answer.headers['Retry-After']).toBe('1');
  });

  it('hides anything unknown behind a 500 INTERNAL without internals', () => {
    const answer = respond(new Error('connect ECONNREFUSED postgresql://postgres:hunter2@db:5432'));
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toContain('hunter2');
    expect(answer.body.error.code).toBe('INTERNAL');
  });

  /** How Prisma's pg adapter hands over a model query's driver error: the SQLSTATE or kind sits in `cause`. */
  const fromAdapter = (cause: Record<string, unknown>) => Object.assign(new Error(String(cause.message ?? cause.kind)), { name: 'DriverAdapterError', cause });

  it.each([
    ['an unreachable server (P1001)', Object.assign(new Error("Can't reach database server at db:5432"), { code: 'P1001' })],
    ['a closed connection (P1017)', Object.assign(new Error('Server has closed the connection.'), { code: 'P1017' })],
    ['a connection pg saw end', new Error('Connection terminated unexpectedly')],
    ['pg\'s own error of a terminated backend', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a terminated backend (57P01) under a model query', fromAdapter({ kind: 'postgres', originalCode: '57P01', code: '57P01', message: 'terminating connection due to administrator command' })],
    ['a server shutting down (57P03) at connect', fromAdapter({ kind: 'postgres', originalCode: '57P03', code: '57P03', message: 'the database system is shutting down' })],
    ['a server crash (57P02)', fromAdapter({ kind: 'postgres', originalCode: '57P02', code: '57P02', message: 'terminating connection because of crash of another server process' })],
    ['a connection failure (08006)', fromAdapter({ kind: 'postgres', originalCode: '08006', code: '08006', message: 'connection failure' })],
    ['a raw query on a terminated backend', Object.assign(new Error('Raw query failed. Code: `57P01`.'), { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '57P01' } } } })],
    ['a refused socket', fromAdapter({ kind: 'DatabaseNotReachable', host: 'db', port: 5432 })],
    ['a reset socket', fromAdapter({ kind: 'ConnectionClosed' })],
    ['pg\'s own socket error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read', errno: -104 })],
    ['a transaction whose connection broke', new Error('Client has encountered a connection error and is not queryable')],
  ])('turns %s into 503 SERVICE_UNAVAILABLE with Retry-After, not a 500', (_what, error) => {
    const answer = respond(error);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.headers['Retry-After']).toBe('5');
  });

  it('keeps a data exception under a model query a client error', () => {
    expect(respond(fromAdapter({ kind: 'postgres', originalCode: '22021', code: '22021', message: 'invalid byte sequence' })).body.error.code).toBe('INVALID_INPUT');
  });

  it('turns an unreachable Temporal into 503 PROVIDER_UNAVAILABLE with Retry-After', () => {
    const grpc = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14, details: 'No connection established', metadata: {} });
    const answer = respond(Object.assign(new Error('Failed to cancel workflow'), { cause: grpc }));
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(answer.headers['Retry-After']).toBe('5');
  });

  it('keeps a value PostgreSQL refuses as data a client error', () => {
    const error = Object.assign(new Error('invalid byte sequence'), { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '22021' } } } });
    expect(respond(error).body.error.code).toBe('INVALID_INPUT');
  });

  it('reports a body in another charset or encoding as 415', () => {
    expect(respond(Object.assign(new Error('unsupported charset'), { status: 415, type: 'charset.unsupported' })).body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('reports malformed JSON and oversized bodies as client errors', () => {
    expect(respond(Object.assign(new Error('bad json'), { status: 400, type: 'entity.parse.failed' })).body.error.code).toBe('INVALID_INPUT');
    expect(respond(Object.assign(new Error('too big'), { status: 413, type: 'entity.too.large' })).status).toBe(413);
  });
});
