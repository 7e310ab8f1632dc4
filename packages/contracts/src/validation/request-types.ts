// The type of a validated request, computed from the generated `operations` and the document object:
// parameters with a `default` are present after validation, read-only body properties are optional.

type EmptyObject = Record<string, never>;

type IfEquals<X, Y, A, B> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? A : B;

type ReadonlyKeys<T> = {
  [K in keyof T]-?: IfEquals<{ [Q in K]: T[K] }, { -readonly [Q in K]: T[K] }, never, K>;
}[keyof T];

/** A body type as a client sends it: read-only (server-set) properties become optional. */
export type RequestView<T> = T extends object
  ? [ReadonlyKeys<T>] extends [never]
    ? T
    : Omit<T, ReadonlyKeys<T>> & { -readonly [K in ReadonlyKeys<T>]?: T[K] }
  : T;

/** A body as the server receives it from a validator: read-only (server-set) properties dropped. */
export type ValidatedBody<T> = T extends object
  ? [ReadonlyKeys<T>] extends [never]
    ? T
    : Omit<T, ReadonlyKeys<T>>
  : T;

type OperationById<Doc, Id> = Doc extends { readonly paths: infer Paths }
  ? {
      [P in keyof Paths]: {
        [M in keyof Paths[P]]: Paths[P][M] extends { readonly operationId: Id } ? Paths[P][M] : never;
      }[keyof Paths[P]];
    }[keyof Paths]
  : never;

type ResolvedParameter<Doc, Ref> = Ref extends { readonly $ref: `#/components/parameters/${infer Name}` }
  ? Doc extends { readonly components: { readonly parameters: infer Parameters } }
    ? Name extends keyof Parameters
      ? Parameters[Name]
      : never
    : never
  : Ref;

type DefaultedName<Parameter, In> = Parameter extends {
  readonly in: In;
  readonly name: infer Name;
  readonly schema: { readonly default: unknown };
}
  ? Name
  : never;

/** Names of the operation's parameters in `In` whose schema has a default. */
export type DefaultedParameters<Doc, Id, In extends string> =
  OperationById<Doc, Id> extends {
    readonly parameters: readonly (infer Ref)[];
  }
    ? DefaultedName<ResolvedParameter<Doc, Ref>, In>
    : never;

type Part<Operation, Key extends 'query' | 'path'> = Operation extends { parameters: infer Parameters }
  ? Key extends keyof Parameters
    ? [Exclude<Parameters[Key], undefined>] extends [never]
      ? EmptyObject
      : Exclude<Parameters[Key], undefined>
    : EmptyObject
  : EmptyObject;

type WithDefaults<T, Names> = [Names & keyof T] extends [never]
  ? T
  : Omit<T, Names & keyof T> & Required<Pick<T, Names & keyof T>>;

type BodyContent<Operation> = Operation extends { requestBody?: { content: infer Content } }
  ? Content[keyof Content]
  : never;

type ComponentOf<Doc, Kind extends string, Ref> = Ref extends {
  readonly $ref: `#/components/${Kind}/${infer Name}`;
}
  ? Doc extends { readonly components: { readonly [K in Kind]: infer Components } }
    ? Name extends keyof Components
      ? Components[Name]
      : never
    : never
  : Ref;

type BodySchema<Doc, Id> =
  ComponentOf<
    Doc,
    'requestBodies',
    OperationById<Doc, Id> extends { readonly requestBody: infer Ref } ? Ref : never
  > extends { readonly content: { readonly 'application/json': { readonly schema: infer Schema } } }
    ? ComponentOf<Doc, 'schemas', Schema>
    : never;

/** Names of the body's top-level properties marked `x-ignored-when-sent` (the validator drops them). */
type IgnoredBodyProperties<Doc, Id> =
  BodySchema<Doc, Id> extends { readonly properties: infer Properties }
    ? {
        [K in keyof Properties]: Properties[K] extends { readonly 'x-ignored-when-sent': true } ? K : never;
      }[keyof Properties]
    : never;

type WithoutIgnored<T, Names> = T extends object
  ? [Names & keyof T] extends [never]
    ? T
    : Omit<T, Names & keyof T>
  : T;

type Body<Doc, Operation, Id> = [BodyContent<Operation>] extends [never]
  ? undefined
  : Operation extends { requestBody: object }
    ? WithoutIgnored<ValidatedBody<BodyContent<Operation>>, IgnoredBodyProperties<Doc, Id>>
    : WithoutIgnored<ValidatedBody<BodyContent<Operation>>, IgnoredBodyProperties<Doc, Id>> | undefined;

/** A request that passed validation: declared parameters only, defaults applied, integers coerced. */
export interface ValidRequest<Doc, Operations, Id extends keyof Operations> {
  readonly query: WithDefaults<Part<Operations[Id], 'query'>, DefaultedParameters<Doc, Id, 'query'>>;
  readonly params: Part<Operations[Id], 'path'>;
  readonly body: Body<Doc, Operations[Id], Id>;
}
