import pino from 'pino';

/** Keys whose values are secrets wherever they appear in a logged object. */
const SECRET_KEYS = [
  'password',
  'cipassword',
  'token',
  'tokenSecret',
  'tokenSecretCipher',
  'consoleUser',
  'consoleUserPasswordCipher',
  'secret',
  'secretCipher',
  'authorization',
  'Authorization',
  'sshKeys',
  'sshkeys',
  // An account SSH key's body: a private key pasted by mistake must not reach a log.
  'publicKey',
  'userData',
  'ENCRYPTION_KEY',
  'ENCRYPTION_KEYS',
  'BOOTSTRAP_ADMIN_TOKEN',
  'METRICS_TOKEN',
  'TEMPORAL_API_KEY',
  'apiKey',
];

const redactPaths = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `req.headers.${key.toLowerCase()}`]);

export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): pino.Logger {
  const options = { name, level, redact: { paths: redactPaths, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = pino.Logger;
