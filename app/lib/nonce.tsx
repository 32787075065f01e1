import { createContext, useContext } from 'react';

/**
 * The CSP nonce for React Router's inline scripts. The server render provides it; in the
 * browser it is empty (browsers hide nonce attributes from scripts, and React leaves them be).
 */
const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
