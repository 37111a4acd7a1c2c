import type { CredentialType, LoginMethod } from '../generated/prisma/enums';
import { AppError } from './errors';

export interface ImageLoginRules {
  loginMethods: readonly LoginMethod[];
  defaultUsername: string | null;
  rootAllowed: boolean;
}

export interface LoginRequest {
  username?: string;
  sshKeys: readonly string[];
  credentialType?: CredentialType;
}

export interface LoginDecision {
  username: string;
  credentialType: CredentialType;
  needsPassword: boolean;
  sshKeys: string[];
}

/**
 * Decides how the customer will log in, before anything is reserved.
 * Username precedence: explicit → image default → plan default → global default;
 * `root` only where the image allows root login.
 */
export function decideLogin(
  request: LoginRequest,
  image: ImageLoginRules,
  planDefaultUsername: string | null,
  globalDefaultUsername: string,
): LoginDecision {
  const password = image.loginMethods.includes('password');
  const ssh = image.loginMethods.includes('ssh');
  if (!password && !ssh) {
    throw new AppError('IMAGE_LOGIN_METHOD_UNSUPPORTED', 'This image supports neither password nor SSH key login.');
  }
  const hasKeys = request.sshKeys.length > 0;
  const requireKeys = () => {
    if (!ssh) throw new AppError('IMAGE_LOGIN_METHOD_UNSUPPORTED', 'This image does not support SSH key login.');
    if (!hasKeys) throw new AppError('IMAGE_SSH_KEY_REQUIRED', 'This image requires at least one SSH public key.');
  };
  const requirePassword = () => {
    if (!password) throw new AppError('IMAGE_LOGIN_METHOD_UNSUPPORTED', 'This image does not support password login.');
  };

  let credentialType: CredentialType;
  switch (request.credentialType) {
    case 'PASSWORD':
      requirePassword();
      credentialType = 'PASSWORD';
      break;
    case 'SSH_KEY':
      requireKeys();
      credentialType = 'SSH_KEY';
      break;
    case 'PASSWORD_AND_SSH_KEY':
      requirePassword();
      requireKeys();
      credentialType = 'PASSWORD_AND_SSH_KEY';
      break;
    case 'IMAGE_DEFINED':
    case undefined:
      if (!password) requireKeys();
      credentialType = password ? (ssh && hasKeys ? 'PASSWORD_AND_SSH_KEY' : 'PASSWORD') : 'SSH_KEY';
      break;
  }

  const username = request.username ?? image.defaultUsername ?? planDefaultUsername ?? globalDefaultUsername;
  if (username === 'root' && !image.rootAllowed) {
    throw new AppError('INVALID_INPUT', 'This image does not allow logging in as root.', {
      fields: { username: 'root login is not allowed on this image' },
    });
  }
  const needsPassword = credentialType === 'PASSWORD' || credentialType === 'PASSWORD_AND_SSH_KEY';
  const sshKeys = credentialType === 'PASSWORD' ? [] : [...request.sshKeys];
  return { username, credentialType, needsPassword, sshKeys };
}
