export declare function signingPlan(
  platform: string,
  env: Record<string, string | undefined>,
): { messages: string[]; env: Record<string, string>; args: string[] };
