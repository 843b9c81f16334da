import pkg from '../../package.json';

export const serviceInfo = () => ({ name: pkg.name, version: pkg.version });
