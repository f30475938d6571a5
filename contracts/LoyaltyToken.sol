// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title LoyaltyToken
/// @notice Reference XP token. The platform relayer owns it and mirrors the ledger onchain.
/// @dev Points move only by mint and burn so the chain cannot drift from the ledger through
///      customer transfers, and customer wallets never need gas or allowances.
contract LoyaltyToken is ERC20, Ownable {
    /// @notice Any transfer between two holders (including transferFrom) is rejected.
    error NonTransferable();

    uint8 private immutable _decimals;

    /// @param owner_ The platform relayer, the only account allowed to mint and burn.
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address owner_)
        ERC20(name_, symbol_)
        Ownable(owner_)
    {
        _decimals = decimals_;
    }

    /// @dev Configurable because 0 decimals makes onchain units equal ledger points.
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @dev No allowance needed: the owner burns on the ledger's behalf (e.g. redemptions).
    function burn(address from, uint256 amount) external onlyOwner {
        _burn(from, amount);
    }

    /// @dev Every balance change goes through _update; only mints (from 0) and burns (to 0) pass.
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) revert NonTransferable();
        super._update(from, to, value);
    }
}
