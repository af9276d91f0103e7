export declare const root: string;
export declare const WEB_SOURCES: string[];
export declare function run(cmd: string, args: string[], opts?: object): Promise<number>;
export declare function newestMtime(dirs: string[]): number;
export declare function ensureWebBuild(opts?: { force?: boolean }): Promise<number>;
