import * as oidc from 'openid-client';

export interface GoogleSignInStart {
  /** Where to send the browser (Google's consent screen). */
  url: string;
  /** Kept in a short-lived httpOnly cookie until Google sends the browser back. */
  pending: PendingGoogleSignIn;
}

export interface PendingGoogleSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectTo: string;
}

export interface GoogleClaims {
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

/**
 * "Continue with Google": an OpenID Connect authorization-code flow with PKCE, state and
 * nonce (openid-client). The issuer is discovered from `GOOGLE_ISSUER_URL`, Google's by
 * default; tests point it at a local mock provider.
 */
export function createGoogleSignIn(options: { clientId: string; clientSecret: string; issuerUrl: string }) {
  let configuration: Promise<oidc.Configuration> | undefined;
  const discover = () => {
    const issuer = new URL(options.issuerUrl);
    // Plain http is accepted only for a provider on this machine (the tests' mock).
    const local = issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
    configuration ??= oidc
      .discovery(
        issuer,
        options.clientId,
        options.clientSecret,
        undefined,
        local ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      });
    return configuration;
  };

  return {
    async start(callbackUrl: string, redirectTo: string): Promise<GoogleSignInStart> {
      const config = await discover();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const pending: PendingGoogleSignIn = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier,
        redirectTo,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },

    /** Exchanges the code Google sent back (checking state, nonce and PKCE) for the account's claims. */
    async finish(currentUrl: URL, pending: PendingGoogleSignIn): Promise<GoogleClaims> {
      const config = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub || typeof claims.email !== 'string') throw new Error('Google did not say who signed in');
      return {
        sub: claims.sub,
        email: claims.email,
        emailVerified: claims.email_verified === true,
        givenName: typeof claims.given_name === 'string' ? claims.given_name : '',
        familyName: typeof claims.family_name === 'string' ? claims.family_name : '',
      };
    },
  };
}

export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>;
