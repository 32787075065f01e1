import { createContext } from 'react-router';
import type { RequestInfo } from '../../contracts/page-request.ts';

export const requestContext = createContext<RequestInfo>({
  viewer: null,
  clientAddress: '',
  nonce: '',
  secureCookies: false,
  partFailed: () => {},
  failed: () => {},
  sharedPage: () => {},
  showsStock: () => {},
});
