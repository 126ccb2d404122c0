// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// l1sim's Interchain Messaging messenger: the ABI, message format, message ids, receipts, events and
// revert strings of ava-labs' TeleporterMessenger v1 (icm-contracts), written anew for l1sim so that
// clients, relayers and receiver contracts built for Teleporter run against it unchanged.
// Compiled by scripts/compile-icm.mjs into messenger.ts beside this file.

/// A delivered message, identified by its nonce, and the address that redeems its delivery fee.
struct TeleporterMessageReceipt {
    uint256 receivedMessageNonce;
    address relayerRewardAddress;
}

/// The fee a relayer earns for delivering a message: an ERC-20 token and an amount of it.
struct TeleporterFeeInfo {
    address feeTokenAddress;
    uint256 amount;
}

/// What a sender asks for in `sendCrossChainMessage`.
struct TeleporterMessageInput {
    bytes32 destinationBlockchainID;
    address destinationAddress;
    TeleporterFeeInfo feeInfo;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    bytes message;
}

/// The message as it travels: ABI-encoded, it is the payload of the warp AddressedCall this
/// contract sends.
struct TeleporterMessage {
    uint256 messageNonce;
    address originSenderAddress;
    bytes32 destinationBlockchainID;
    address destinationAddress;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    TeleporterMessageReceipt[] receipts;
    bytes message;
}

/// subnet-EVM's warp message as the precompile returns it.
struct WarpMessage {
    bytes32 sourceChainID;
    address originSenderAddress;
    bytes payload;
}

/// The warp precompile at 0x0200…05 (subnet-EVM's and coreth's IWarpMessenger).
interface IWarpMessenger {
    function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID);
    function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage calldata message, bool valid);
    function getBlockchainID() external view returns (bytes32 blockchainID);
}

/// What a contract implements to be called with the messages sent to it.
interface ITeleporterReceiver {
    function receiveTeleporterMessage(bytes32 sourceBlockchainID, address originSenderAddress, bytes calldata message)
        external;
}

/// The part of ERC-20 the fees use.
interface IFeeToken {
    function balanceOf(address account) external view returns (uint256);
}

contract ICMMessenger {
    /// Where a sent message stands until its receipt comes back: its hash (for a resend) and its fee.
    struct SentMessageInfo {
        bytes32 messageHash;
        TeleporterFeeInfo feeInfo;
    }

    /// Receipts waiting to ride back to a chain, in order: slots first..last-1 are filled.
    struct ReceiptQueue {
        uint256 first;
        uint256 last;
        mapping(uint256 => TeleporterMessageReceipt) items;
    }

    event BlockchainIDInitialized(bytes32 indexed blockchainID);
    event SendCrossChainMessage(
        bytes32 indexed messageID,
        bytes32 indexed destinationBlockchainID,
        TeleporterMessage message,
        TeleporterFeeInfo feeInfo
    );
    event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo);
    event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message);
    event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);
    event ReceiveCrossChainMessage(
        bytes32 indexed messageID,
        bytes32 indexed sourceBlockchainID,
        address indexed deliverer,
        address rewardRedeemer,
        TeleporterMessage message
    );
    event ReceiptReceived(
        bytes32 indexed messageID,
        bytes32 indexed destinationBlockchainID,
        address indexed relayerRewardAddress,
        TeleporterFeeInfo feeInfo
    );
    event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount);

    IWarpMessenger public constant WARP_MESSENGER = IWarpMessenger(0x0200000000000000000000000000000000000005);

    /// At most this many receipts ride along one outgoing message.
    uint256 private constant MAX_RECEIPTS_PER_MESSAGE = 5;
    uint256 private constant IDLE = 1;
    uint256 private constant BUSY = 2;

    // Storage, in TeleporterMessenger's slot order (its two reentrancy flags first), so that a
    // state dump or a storage read by slot finds the same things at the same places.
    uint256 private _sending;
    uint256 private _receiving;
    bytes32 public blockchainID;
    uint256 public messageNonce;
    mapping(bytes32 sourceBlockchainID => ReceiptQueue) public receiptQueues;
    mapping(bytes32 messageID => SentMessageInfo) public sentMessageInfo;
    mapping(bytes32 messageID => bytes32 messageHash) public receivedFailedMessageHashes;
    /// A received message's nonce by its id; zero means not received (nonces start at 1).
    mapping(bytes32 => uint256) private _receivedNonces;
    mapping(bytes32 => address) private _rewardAddresses;
    /// Redeemable rewards: relayer reward address => fee token => amount.
    mapping(address => mapping(address => uint256)) private _rewards;

    constructor() {
        _sending = IDLE;
        _receiving = IDLE;
    }

    // Sending and receiving each refuse to be re-entered, but a receiver may send while it is
    // being called: the two flags are separate.
    modifier sending() {
        require(_sending == IDLE, "ReentrancyGuards: sender reentrancy");
        _sending = BUSY;
        _;
        _sending = IDLE;
    }

    modifier receiving() {
        require(_receiving == IDLE, "ReentrancyGuards: receiver reentrancy");
        _receiving = BUSY;
        _;
        _receiving = IDLE;
    }

    // ---- sending ------------------------------------------------------------------------------

    function sendCrossChainMessage(TeleporterMessageInput calldata messageInput) external sending returns (bytes32) {
        TeleporterMessageReceipt[] memory receipts = _takeReceipts(receiptQueues[messageInput.destinationBlockchainID]);
        return _send(messageInput, receipts);
    }

    function retrySendCrossChainMessage(TeleporterMessage calldata message) external sending {
        bytes32 id = calculateMessageID(blockchainID, message.destinationBlockchainID, message.messageNonce);
        SentMessageInfo memory info = sentMessageInfo[id];
        require(info.messageHash != bytes32(0), "TeleporterMessenger: message not found");
        bytes memory encoded = abi.encode(message);
        require(keccak256(encoded) == info.messageHash, "TeleporterMessenger: invalid message hash");
        emit SendCrossChainMessage(id, message.destinationBlockchainID, message, info.feeInfo);
        WARP_MESSENGER.sendWarpMessage(encoded);
    }

    function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount)
        external
        sending
        receiving
    {
        require(additionalFeeAmount > 0, "TeleporterMessenger: zero additional fee amount");
        require(feeTokenAddress != address(0), "TeleporterMessenger: zero fee asset contract address");
        SentMessageInfo storage info = sentMessageInfo[messageID];
        require(info.messageHash != bytes32(0), "TeleporterMessenger: message not found");
        require(info.feeInfo.feeTokenAddress == feeTokenAddress, "TeleporterMessenger: invalid fee asset contract address");
        info.feeInfo.amount += _collectFee(feeTokenAddress, additionalFeeAmount);
        emit AddFeeAmount(messageID, info.feeInfo);
    }

    function sendSpecifiedReceipts(
        bytes32 sourceBlockchainID,
        bytes32[] calldata messageIDs,
        TeleporterFeeInfo calldata feeInfo,
        address[] calldata allowedRelayerAddresses
    ) external sending returns (bytes32) {
        bytes32 here = blockchainID;
        TeleporterMessageReceipt[] memory receipts = new TeleporterMessageReceipt[](messageIDs.length);
        for (uint256 i = 0; i < messageIDs.length; ++i) {
            bytes32 id = messageIDs[i];
            uint256 nonce = _receivedNonces[id];
            require(nonce != 0, "TeleporterMessenger: receipt not found");
            require(
                id == calculateMessageID(sourceBlockchainID, here, nonce),
                "TeleporterMessenger: message ID not from source blockchain"
            );
            receipts[i] = TeleporterMessageReceipt(nonce, _rewardAddresses[id]);
        }
        TeleporterMessageInput memory input;
        input.destinationBlockchainID = sourceBlockchainID;
        input.feeInfo = feeInfo;
        input.allowedRelayerAddresses = allowedRelayerAddresses;
        return _send(input, receipts);
    }

    // ---- receiving ----------------------------------------------------------------------------

    function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress) external receiving {
        (WarpMessage memory warpMessage, bool valid) = WARP_MESSENGER.getVerifiedWarpMessage(messageIndex);
        require(valid, "TeleporterMessenger: invalid warp message");
        // Only a messenger at this same address (the same bytecode, deployed the same way) wrote it.
        require(warpMessage.originSenderAddress == address(this), "TeleporterMessenger: invalid origin sender address");
        TeleporterMessage memory message = abi.decode(warpMessage.payload, (TeleporterMessage));
        bytes32 here = initializeBlockchainID();
        require(message.destinationBlockchainID == here, "TeleporterMessenger: invalid destination chain ID");
        bytes32 source = warpMessage.sourceChainID;
        bytes32 id = calculateMessageID(source, here, message.messageNonce);
        require(_receivedNonces[id] == 0, "TeleporterMessenger: message already received");
        require(_mayDeliver(msg.sender, message.allowedRelayerAddresses), "TeleporterMessenger: unauthorized relayer");

        require(message.messageNonce != 0, "TeleporterMessenger: zero message nonce");
        _receivedNonces[id] = message.messageNonce;
        if (relayerRewardAddress != address(0)) _rewardAddresses[id] = relayerRewardAddress;

        // The receipts the other side sends back settle the fees of what this side sent it.
        for (uint256 i = 0; i < message.receipts.length; ++i) {
            _settleReceipt(here, source, message.receipts[i]);
        }
        ReceiptQueue storage queue = receiptQueues[source];
        queue.items[queue.last++] = TeleporterMessageReceipt(message.messageNonce, relayerRewardAddress);

        emit ReceiveCrossChainMessage(id, source, msg.sender, relayerRewardAddress, message);

        if (message.message.length > 0) _executeFirst(id, source, message);
    }

    function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage calldata message) external receiving {
        bytes32 id = calculateMessageID(sourceBlockchainID, blockchainID, message.messageNonce);
        bytes32 failedHash = receivedFailedMessageHashes[id];
        require(failedHash != bytes32(0), "TeleporterMessenger: message not found");
        require(keccak256(abi.encode(message)) == failedHash, "TeleporterMessenger: invalid message hash");
        require(message.destinationAddress.code.length > 0, "TeleporterMessenger: destination address has no code");
        emit MessageExecuted(id, sourceBlockchainID);
        delete receivedFailedMessageHashes[id];
        // A retry may use all the gas the caller gives it, and reverts when the call fails again.
        bool ok = _call(
            message.destinationAddress,
            gasleft(),
            _receiverCall(sourceBlockchainID, message.originSenderAddress, message.message)
        );
        require(ok, "TeleporterMessenger: retry execution failed");
    }

    // ---- rewards ------------------------------------------------------------------------------

    function redeemRelayerRewards(address feeAsset) external {
        uint256 amount = _rewards[msg.sender][feeAsset];
        require(amount > 0, "TeleporterMessenger: no reward to redeem");
        delete _rewards[msg.sender][feeAsset];
        emit RelayerRewardsRedeemed(msg.sender, feeAsset, amount);
        _tokenCall(feeAsset, abi.encodeWithSignature("transfer(address,uint256)", msg.sender, amount));
    }

    function checkRelayerRewardAmount(address relayer, address feeAsset) external view returns (uint256) {
        return _rewards[relayer][feeAsset];
    }

    // ---- reads --------------------------------------------------------------------------------

    function getMessageHash(bytes32 messageID) external view returns (bytes32) {
        return sentMessageInfo[messageID].messageHash;
    }

    function messageReceived(bytes32 messageID) external view returns (bool) {
        return _receivedNonces[messageID] != 0;
    }

    function getRelayerRewardAddress(bytes32 messageID) external view returns (address) {
        require(_receivedNonces[messageID] != 0, "TeleporterMessenger: message not received");
        return _rewardAddresses[messageID];
    }

    function getFeeInfo(bytes32 messageID) external view returns (address, uint256) {
        TeleporterFeeInfo memory fee = sentMessageInfo[messageID].feeInfo;
        return (fee.feeTokenAddress, fee.amount);
    }

    function getNextMessageID(bytes32 destinationBlockchainID) external view returns (bytes32) {
        bytes32 here = blockchainID;
        require(here != bytes32(0), "TeleporterMessenger: zero blockchain ID");
        return calculateMessageID(here, destinationBlockchainID, messageNonce + 1);
    }

    function getReceiptQueueSize(bytes32 sourceBlockchainID) external view returns (uint256) {
        ReceiptQueue storage queue = receiptQueues[sourceBlockchainID];
        return queue.last - queue.first;
    }

    function getReceiptAtIndex(bytes32 sourceBlockchainID, uint256 index)
        external
        view
        returns (TeleporterMessageReceipt memory)
    {
        ReceiptQueue storage queue = receiptQueues[sourceBlockchainID];
        require(index < queue.last - queue.first, "ReceiptQueue: index out of bounds");
        return queue.items[queue.first + index];
    }

    /// Reads this chain's blockchain id from the warp precompile the first time it is needed.
    function initializeBlockchainID() public returns (bytes32) {
        bytes32 here = blockchainID;
        if (here != bytes32(0)) return here;
        here = WARP_MESSENGER.getBlockchainID();
        require(here != bytes32(0), "TeleporterMessenger: zero blockchain ID");
        blockchainID = here;
        emit BlockchainIDInitialized(here);
        return here;
    }

    /// A message's id: keccak256 of the ABI encoding of (messenger, source chain, destination chain, nonce).
    function calculateMessageID(bytes32 sourceBlockchainID, bytes32 destinationBlockchainID, uint256 nonce)
        public
        view
        returns (bytes32)
    {
        return keccak256(abi.encode(address(this), sourceBlockchainID, destinationBlockchainID, nonce));
    }

    // ---- internals ----------------------------------------------------------------------------

    function _send(TeleporterMessageInput memory input, TeleporterMessageReceipt[] memory receipts)
        private
        returns (bytes32)
    {
        bytes32 here = initializeBlockchainID();
        uint256 nonce = ++messageNonce;
        bytes32 id = calculateMessageID(here, input.destinationBlockchainID, nonce);
        TeleporterMessage memory message = TeleporterMessage({
            messageNonce: nonce,
            originSenderAddress: msg.sender,
            destinationBlockchainID: input.destinationBlockchainID,
            destinationAddress: input.destinationAddress,
            requiredGasLimit: input.requiredGasLimit,
            allowedRelayerAddresses: input.allowedRelayerAddresses,
            receipts: receipts,
            message: input.message
        });
        bytes memory encoded = abi.encode(message);

        // A zero fee is allowed (a sender may relay its own messages); the fee recorded is what
        // the messenger's balance grew by, so a token taking a cut on transfer pays less.
        TeleporterFeeInfo memory fee = TeleporterFeeInfo(input.feeInfo.feeTokenAddress, 0);
        if (input.feeInfo.amount > 0) {
            require(fee.feeTokenAddress != address(0), "TeleporterMessenger: zero fee asset contract address");
            fee.amount = _collectFee(fee.feeTokenAddress, input.feeInfo.amount);
        }
        sentMessageInfo[id] = SentMessageInfo(keccak256(encoded), fee);

        emit SendCrossChainMessage(id, input.destinationBlockchainID, message, fee);
        WARP_MESSENGER.sendWarpMessage(encoded);
        return id;
    }

    function _takeReceipts(ReceiptQueue storage queue) private returns (TeleporterMessageReceipt[] memory receipts) {
        uint256 count = queue.last - queue.first;
        if (count > MAX_RECEIPTS_PER_MESSAGE) count = MAX_RECEIPTS_PER_MESSAGE;
        receipts = new TeleporterMessageReceipt[](count);
        uint256 first = queue.first;
        for (uint256 i = 0; i < count; ++i) {
            receipts[i] = queue.items[first + i];
            delete queue.items[first + i];
        }
        queue.first = first + count;
    }

    /// Pays a receipt's relayer the fee of the message it names, once: a receipt for a message
    /// already settled (or never sent) is ignored.
    function _settleReceipt(bytes32 here, bytes32 destination, TeleporterMessageReceipt memory receipt) private {
        bytes32 id = calculateMessageID(here, destination, receipt.receivedMessageNonce);
        SentMessageInfo memory info = sentMessageInfo[id];
        if (info.messageHash == bytes32(0)) return;
        delete sentMessageInfo[id];
        _rewards[receipt.relayerRewardAddress][info.feeInfo.feeTokenAddress] += info.feeInfo.amount;
        emit ReceiptReceived(id, destination, receipt.relayerRewardAddress, info.feeInfo);
    }

    /// The first execution of a received message: the relayer must give the gas the sender asked
    /// for, but a failing receiver does not undo the delivery; its message waits for a retry.
    function _executeFirst(bytes32 id, bytes32 source, TeleporterMessage memory message) private {
        require(gasleft() >= message.requiredGasLimit, "TeleporterMessenger: insufficient gas");
        bool ok = message.destinationAddress.code.length > 0
            && _call(
                message.destinationAddress,
                message.requiredGasLimit,
                _receiverCall(source, message.originSenderAddress, message.message)
            );
        if (ok) {
            emit MessageExecuted(id, source);
        } else {
            receivedFailedMessageHashes[id] = keccak256(abi.encode(message));
            emit MessageExecutionFailed(id, source, message);
        }
    }

    function _receiverCall(bytes32 source, address sender, bytes memory message) private pure returns (bytes memory) {
        return abi.encodeCall(ITeleporterReceiver.receiveTeleporterMessage, (source, sender, message));
    }

    /// A call that copies none of what the callee returns, so a receiver cannot make the messenger
    /// pay for a huge return buffer.
    function _call(address target, uint256 gasLimit, bytes memory data) private returns (bool ok) {
        assembly {
            ok := call(gasLimit, target, 0, add(data, 0x20), mload(data), 0, 0)
        }
    }

    function _mayDeliver(address deliverer, address[] memory allowed) private pure returns (bool) {
        if (allowed.length == 0) return true;
        for (uint256 i = 0; i < allowed.length; ++i) {
            if (allowed[i] == deliverer) return true;
        }
        return false;
    }

    /// Takes `amount` of `token` from the caller and answers what the messenger's balance grew by.
    function _collectFee(address token, uint256 amount) private returns (uint256) {
        uint256 before = IFeeToken(token).balanceOf(address(this));
        _tokenCall(token, abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amount));
        uint256 afterwards = IFeeToken(token).balanceOf(address(this));
        require(afterwards > before, "SafeERC20TransferFrom: balance not increased");
        return afterwards - before;
    }

    /// An ERC-20 call that accepts tokens returning nothing, with OpenZeppelin 4's SafeERC20
    /// refusals: the token's own revert bubbles up, `false` and a call to an account without code fail.
    function _tokenCall(address token, bytes memory data) private {
        (bool ok, bytes memory returned) = token.call(data);
        if (!ok) {
            if (returned.length > 0) {
                assembly {
                    revert(add(returned, 0x20), mload(returned))
                }
            }
            revert("SafeERC20: low-level call failed");
        }
        if (returned.length == 0) {
            require(token.code.length > 0, "Address: call to non-contract");
        } else {
            require(abi.decode(returned, (bool)), "SafeERC20: ERC20 operation did not succeed");
        }
    }
}
