/** Types of scripts/build.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader). */
export declare const CLIENT_OUT_DIR: string;
export declare const SERVER_BUNDLE: string;
export declare function clientBuildIsStale(outDir?: string): boolean;
export declare function serverBuildIsStale(): boolean;
export declare function buildClient(outDir?: string, logLevel?: "info" | "warn" | "silent"): Promise<void>;
export declare function buildServer(): Promise<void>;
export declare function available(name: string): Promise<boolean>;
