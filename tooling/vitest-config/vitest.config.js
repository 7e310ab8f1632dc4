import { packageTestConfig } from './index.js';

export default packageTestConfig();
