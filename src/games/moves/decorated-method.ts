/**
 * Defines a method on a class as TypeScript would compile a decorated one (`__decorate`): its
 * method decorators, its parameter decorators and the `design:*` metadata Nest reads (the
 * parameters' types drive the ValidationPipe and Swagger's body schema).
 */
import 'reflect-metadata';

export interface Parameter {
  /** The parameter's declared type, as `design:paramtypes` records it (Object for interfaces). */
  type: unknown;
  decorators: ParameterDecorator[];
}

export const parameter = (type: unknown, ...decorators: ParameterDecorator[]): Parameter => ({ type, decorators });

export function defineDecoratedMethod(
  prototype: object,
  name: string,
  spec: { decorators: MethodDecorator[]; parameters: Parameter[]; handler: (...args: never[]) => unknown },
): void {
  if (Object.prototype.hasOwnProperty.call(prototype, name))
    throw new Error(`${prototype.constructor.name}.${name} is defined twice`);
  // Swagger names the operation (operationId) and finds the parameters by the function's own name.
  Object.defineProperty(spec.handler, 'name', { value: name });
  Object.defineProperty(prototype, name, { value: spec.handler, writable: true, configurable: true });
  // The same list TypeScript emits, applied last to first: metadata, then the parameters' decorators, then the method's.
  const decorators: Array<MethodDecorator | ParameterDecorator | ((t: object, k: string) => void)> = [
    ...spec.decorators,
    ...spec.parameters.flatMap((p, index) =>
      p.decorators.map((d) => (target: object, key: string) => d(target, key, index)),
    ),
    Reflect.metadata('design:type', Function),
    Reflect.metadata(
      'design:paramtypes',
      spec.parameters.map((p) => p.type),
    ),
    Reflect.metadata('design:returntype', undefined),
  ];
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  const decorated = Reflect.decorate(decorators as MethodDecorator[], prototype, name, descriptor) as
    PropertyDescriptor | undefined;
  Object.defineProperty(prototype, name, decorated ?? descriptor);
}
