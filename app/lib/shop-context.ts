import { createContext } from 'react-router';
import type { ShopServices } from '../../server/services.ts';

/**
 * The key under which the server hands loaders the shop's services. The server
 * reads it from the built entry module, so both sides share this one instance.
 */
export const shopContext = createContext<ShopServices>();
