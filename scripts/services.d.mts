export interface TestService { id: 'mysql' | 'postgres' | 'redis'; name: string; variable: string; fallback: string }
export declare const SERVICES: TestService[];
export declare const CHROMIUM_CANDIDATES: string[];
export declare function where(url: string): string;
export declare function probe(id: TestService['id'], url: string): Promise<string | null>;
export declare function which(name: string): string | null;
export declare function ensureService(service: TestService, env?: Record<string, string | undefined>): Promise<TestService & { url: string | null; state: 'given' | 'running' | 'started' | 'missing'; reason?: string }>;
export declare function ensureChromium(env?: Record<string, string | undefined>): Promise<{ path?: string; reason?: string }>;
