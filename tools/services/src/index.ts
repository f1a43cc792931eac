export { freePort } from './free-port.js';
export {
  type NginxBalancerOptions,
  startNginxBalancer,
  type TestBalancer,
} from './nginx-balancer.js';
export { type StartRedisOptions, startRedis, type TestRedis } from './redis.js';
export { requireProgram } from './require-program.js';
