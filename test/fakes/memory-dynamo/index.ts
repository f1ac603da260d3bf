export {
  createMemoryDynamo,
  type ChangeRecord,
  type ItemRef,
  type MemoryDynamo,
  type MemoryDynamoHooks,
  type MemoryDynamoOptions,
  type ReadRecord,
  type TransactionVerdict,
  type WriteRecord,
} from './memory-dynamo.js';
